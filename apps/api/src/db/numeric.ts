import { fromUnits, toSignedUnits } from '@p2p/contract';

/**
 * A NUMERIC column (coin quantity, up to 8 decimals) as the wire's plain decimal string: "1.50000000" -> "1.5",
 * null -> "0" (DECISIONS §3). Exact: it goes through bigint base units, never a float.
 */
export function qty(numeric: string | null | undefined): string {
  return fromUnits(numeric ? toSignedUnits(numeric) : 0n);
}
