import { encodeFunctionData, type Hex, parseAbi } from 'viem';

/*
 * A small contract that pays on behalf of its caller, as an exchange's multisig or a smart-contract wallet
 * does: ETH it sends reaches the recipient in an internal call, which a scanner reading only tx.to misses
 * (DECISIONS §17). Deployed by the tests from this bytecode; nothing is compiled at test time.
 *
 * Compiled with solc 0.8.37+commit.f401782d (npm solc), optimizer on (200 runs), evmVersion cancun:
 *
 * // SPDX-License-Identifier: MIT
 * pragma solidity 0.8.37;
 *
 * /// Pays on behalf of its caller, as an exchange's multisig or a smart-contract wallet does.
 * contract Forwarder {
 *     /// Sends all of msg.value to `to`.
 *     function forward(address payable to) external payable {
 *         (bool ok, ) = to.call{value: msg.value}("");
 *         require(ok, "forward failed");
 *     }
 *
 *     /// Pays `lost` half from inside a call that then reverts (caught, so this call succeeds and the half
 *     /// stays here), then pays `kept` the other half.
 *     function forwardAfterRevert(address payable lost, address payable kept) external payable {
 *         uint256 half = msg.value / 2;
 *         try this.payThenRevert{value: half}(lost) {} catch {}
 *         (bool ok, ) = kept.call{value: msg.value - half}("");
 *         require(ok, "forward failed");
 *     }
 *
 *     /// Pays `to`, then reverts: the payment never happened.
 *     function payThenRevert(address payable to) external payable {
 *         (bool ok, ) = to.call{value: msg.value}("");
 *         require(ok, "forward failed");
 *         revert("undone");
 *     }
 * }
 */
export const FORWARDER_BYTECODE: Hex =
  '0x6080604052348015600e575f5ffd5b506103788061001c5f395ff3fe608060405260043610610033575f3560e01c8063101e8952146100375780636b240ca91461004c578063e0044bcd1461005f575b5f5ffd5b61004a610045366004610285565b610072565b005b61004a61005a3660046102a5565b6100ee565b61004a61006d366004610285565b6101ca565b5f816001600160a01b0316346040515f6040518083038185875af1925050503d805f81146100bb576040519150601f19603f3d011682016040523d82523d5f602084013e6100c0565b606091505b50509050806100ea5760405162461bcd60e51b81526004016100e1906102d6565b60405180910390fd5b5050565b5f6100fa6002346102fe565b60405163e0044bcd60e01b81526001600160a01b0385166004820152909150309063e0044bcd9083906024015f604051808303818588803b15801561013d575f5ffd5b505af19350505050801561014f575060015b505f6001600160a01b038316610165833461031d565b6040515f81818185875af1925050503d805f811461019e576040519150601f19603f3d011682016040523d82523d5f602084013e6101a3565b606091505b50509050806101c45760405162461bcd60e51b81526004016100e1906102d6565b50505050565b5f816001600160a01b0316346040515f6040518083038185875af1925050503d805f8114610213576040519150601f19603f3d011682016040523d82523d5f602084013e610218565b606091505b50509050806102395760405162461bcd60e51b81526004016100e1906102d6565b60405162461bcd60e51b8152602060048201526006602482015265756e646f6e6560d01b60448201526064016100e1565b80356001600160a01b0381168114610280575f5ffd5b919050565b5f60208284031215610295575f5ffd5b61029e8261026a565b9392505050565b5f5f604083850312156102b6575f5ffd5b6102bf8361026a565b91506102cd6020840161026a565b90509250929050565b6020808252600e908201526d199bdc9dd85c990819985a5b195960921b604082015260600190565b5f8261031857634e487b7160e01b5f52601260045260245ffd5b500490565b8181038181111561033c57634e487b7160e01b5f52601160045260245ffd5b9291505056fea2646970667358221220f09e4fc66f39aed402268057b1fda87ebeb0e683f8ee9dc308e6c3093f7bf2c764736f6c63430008250033';

export const FORWARDER_ABI = parseAbi([
  'function forward(address to) payable',
  'function forwardAfterRevert(address lost, address kept) payable',
  'function payThenRevert(address to) payable',
]);

/** Calldata of `forward(to)`: the contract sends all of the call's value to `to`. */
export const forwardCall = (to: Hex): Hex =>
  encodeFunctionData({ abi: FORWARDER_ABI, functionName: 'forward', args: [to] });

/** Calldata of `forwardAfterRevert(lost, kept)`: half to `lost` in a reverted call, the rest to `kept`. */
export const forwardAfterRevertCall = (lost: Hex, kept: Hex): Hex =>
  encodeFunctionData({ abi: FORWARDER_ABI, functionName: 'forwardAfterRevert', args: [lost, kept] });

/** Calldata of `payThenRevert(to)`: as a transaction of its own, it fails and pays nobody. */
export const payThenRevertCall = (to: Hex): Hex =>
  encodeFunctionData({ abi: FORWARDER_ABI, functionName: 'payThenRevert', args: [to] });
