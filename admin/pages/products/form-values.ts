/**
 * A form's values as a command's parameters: strings trimmed, empty fields left out (so an
 * update changes only what was filled in), `name` left to the caller (it is an object).
 */
export function typedParams(values: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([key, value]) => key !== 'name' && value !== undefined && value !== null && value !== '')
      .map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value]),
  );
}
