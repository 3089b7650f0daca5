import { readFileSync } from 'node:fs';

// Which new administrator passwords are refused beyond the length rule (zAdminPassword): the most
// common ones (common-passwords.txt), also with digits or symbols around them ("Password2024!") or
// repeated ("qwertyqwerty"), since those are the first guesses of any attacker.

const COMMON_PASSWORDS = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line.length > 0 && !line.startsWith('#')),
);

function normalise(password: string): string {
  return password.normalize('NFKC').trim().toLowerCase();
}

/** A common password, or one made of a common password and a few digits or symbols, or repeated. */
export function isCommonPassword(password: string): boolean {
  const text = normalise(password);
  const candidates = [
    text,
    text.replace(/[\d\W_]+$/u, ''),
    text.replace(/^[\d\W_]+/u, ''),
    text.replace(/^[\d\W_]+|[\d\W_]+$/gu, ''),
  ];
  for (let size = 1; size <= text.length / 2; size += 1) {
    if (text.length % size === 0 && text.slice(0, size).repeat(text.length / size) === text) {
      candidates.push(text.slice(0, size));
      break;
    }
  }
  return candidates.some((candidate) => candidate.length > 0 && COMMON_PASSWORDS.has(candidate));
}
