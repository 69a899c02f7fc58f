import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimums (19 MiB, 2 passes); Algorithm.Argon2id is the library default.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id (DECISIONS §6). Returns the PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** True when `password` matches the PHC `passwordHash`; false (never throws) on a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
