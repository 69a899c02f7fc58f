-- Cold sweeps of ETH and XRP (issue 24, DECISIONS §18) take a nonce / Sequence of the address withdrawals pay
-- from, so they keep what a withdrawal attempt keeps: the intent (signed again after a crash with the same
-- requestId, the signer answering from its journal), the reservation (the nonce, given back when the signer
-- refuses) and the signed transaction with its txid, stored before it is sent and sent again, never re-signed.
alter table cold_sweeps add column intent jsonb;
alter table cold_sweeps add column reservation jsonb;
alter table cold_sweeps add column signed_tx text;
alter table cold_sweeps add column broadcast_at timestamptz;
