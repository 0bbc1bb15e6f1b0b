/**
 * The EIP-712 type a wallet buyer signs: EIP-3009 `TransferWithAuthorization`, as USDC defines it.
 * Written once; the Worker's check hashes its type string, and the facilitator stand-in, the test
 * buyers and the benchmark sign or verify with the same fields.
 */
export const TRANSFER_WITH_AUTHORIZATION = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const

/** The `types` argument of an EIP-712 signer or verifier (viem's signTypedData, verifyTypedData). */
export const TRANSFER_TYPES = { TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION } as const

/** The encoded type string whose hash is EIP-712's typeHash. */
export const TRANSFER_TYPE_STRING = `TransferWithAuthorization(${TRANSFER_WITH_AUTHORIZATION.map((f) => `${f.type} ${f.name}`).join(',')})`
