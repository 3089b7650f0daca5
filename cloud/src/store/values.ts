// Values read back from either dialect: SQLite gives text and 0/1, PostgreSQL Date, boolean,
// and bigint counts as strings.

export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

export function toDateOrNull(value: Date | string | null | undefined): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}

export function toBoolean(value: boolean | number | string): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

export function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

export function toCount(value: string | number | bigint | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}
