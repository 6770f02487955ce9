/**
 * What a multi-page flow carries between its pages (register -> verify code; forgot -> code ->
 * new password). Kept in memory only: a reload mid-flow starts it again, no password is stored.
 */
export interface RegisterDraft {
  email: string;
  password: string;
  confirmPassword: string;
  inviteCode: string;
  codeSentUntil: number;
}

export interface ForgotDraft {
  email: string;
  code: string;
  codeSentUntil: number;
}

export const drafts: { register: RegisterDraft | null; forgot: ForgotDraft | null } = {
  register: null,
  forgot: null,
};
