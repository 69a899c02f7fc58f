/**
 * Proofs of reserves (DECISIONS §20): a Merkle-sum tree over members' liabilities, with the byte encoding anyone
 * can re-implement. No dependency on the API: the API builds snapshots with it, the web app and the
 * `p2p-verify-reserves` command verify with it.
 */
export { type ControlClaim, type ControlScheme, controlMessage, verifyControl } from './control.ts';
export { fromDecimal, fromHex, leafHash, MAX_U128, parentHash, toHex, u128 } from './encoding.ts';
export {
  makeProof,
  type ReserveProof,
  reserveProofSchema,
  type VerifyResult,
  type VerifyStep,
  verifyProof,
} from './proof.ts';
export {
  buildTree,
  type Holding,
  type MerkleSumTree,
  type PathStep,
  type PlacedLeaf,
  paddedSize,
  pathOf,
  placeLeaves,
  rootHex,
} from './tree.ts';
