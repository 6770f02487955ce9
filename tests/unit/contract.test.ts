/** The contract's validation rules (spec section 5) as plain helpers and as zod schemas. */
import { describe, expect, test } from 'vitest';
import { registerParamsSchema, sendCodeParamsSchema } from '../../contract/api/sso.js';
import { BodyCode } from '../../contract/codes.js';
import {
  checkAmount,
  checkCode,
  checkConfirmPassword,
  checkEmail,
  checkPassword,
  DIGITS_PATTERN,
  MAINLAND_MOBILE_PATTERN,
} from '../../contract/validation.js';
import { errorOfIssue } from '../../server/core/params.js';

const valid = {
  email: 'User@Example.com',
  code: '123456',
  inviteCode: 'ROOT1234',
  password: 'secret1',
  confirmPassword: 'secret1',
};
const firstError = (input: unknown) => {
  const result = registerParamsSchema.safeParse(input);
  if (result.success) return null;
  const [issue] = result.error.issues;
  return issue ? { key: errorOfIssue(issue).messageKey, field: issue.path.join('.') } : null;
};

describe('validation helpers', () => {
  test('a password needs at least 6 characters', () => {
    expect(checkPassword('12345')).toBe('server.password_too_short');
    expect(checkPassword('123456')).toBeNull();
    expect(checkPassword('')).toBe('server.field_required');
  });
  test('the confirm password must equal the new one, otherwise "the two passwords do not match"', () => {
    expect(checkConfirmPassword('secret1', 'secret2')).toBe('server.passwords_mismatch');
    expect(checkConfirmPassword('secret1', 'secret1')).toBeNull();
  });
  test('e-mail pattern, 6-digit code, digits only, mainland mobile and 2-decimal amount helpers', () => {
    expect(checkEmail('a@b.co')).toBeNull();
    expect(checkEmail('a@b')).toBe('server.email_invalid');
    expect(checkCode('12345a')).toBe('server.code_format');
    expect(checkCode('012345')).toBeNull();
    expect(DIGITS_PATTERN.test('0123')).toBe(true);
    expect(MAINLAND_MOBILE_PATTERN.test('13812345678')).toBe(true);
    expect(MAINLAND_MOBILE_PATTERN.test('12812345678')).toBe(false);
    expect(checkAmount('10.25')).toBeNull();
    expect(checkAmount('10.255')).toBe('server.amount_invalid');
  });
  test('the body codes are the contract table', () => {
    expect(BodyCode).toMatchObject({
      ok: 200,
      tradePasswordNotSet: 300,
      notLoggedIn: 401,
      envelopeRefused: 460,
      authenticatorNotBound: 4900,
      noWithdrawalMethod: 4901,
    });
  });
});

describe('route schemas', () => {
  test('e-mail addresses are normalised to lower case', () => {
    expect(sendCodeParamsSchema.parse({ email: ' User@Example.COM ' })).toEqual({
      email: 'user@example.com',
    });
  });
  test('register refuses each broken field with the field named', () => {
    expect(firstError(valid)).toBeNull();
    expect(firstError({ ...valid, password: '12345', confirmPassword: '12345' })).toEqual({
      key: 'server.password_too_short',
      field: 'password',
    });
    expect(firstError({ ...valid, confirmPassword: 'secret2' })).toEqual({
      key: 'server.passwords_mismatch',
      field: 'confirmPassword',
    });
    expect(firstError({ ...valid, code: '12 456' })).toEqual({ key: 'server.code_format', field: 'code' });
    expect(firstError({ ...valid, inviteCode: '' })).toEqual({
      key: 'server.field_required',
      field: 'inviteCode',
    });
    expect(firstError({ ...valid, email: undefined })).toEqual({
      key: 'server.field_required',
      field: 'email',
    });
    expect(firstError({ ...valid, email: 42 })).toEqual({ key: 'server.field_wrong_type', field: 'email' });
  });
  test('control characters and oversized strings are refused before any query', () => {
    expect(firstError({ ...valid, inviteCode: 'ROOT\u0000' })).toEqual({
      key: 'server.field_control_chars',
      field: 'inviteCode',
    });
    expect(
      firstError({ ...valid, password: 'x'.repeat(200_000), confirmPassword: 'x'.repeat(200_000) }),
    ).toEqual({ key: 'server.field_too_long', field: 'password' });
    expect(firstError({ ...valid, email: `${'a'.repeat(300)}@example.com` })).toEqual({
      key: 'server.field_too_long',
      field: 'email',
    });
  });
});
