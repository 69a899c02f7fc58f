-- Proof of reserves from the nodes (DECISIONS §20): a coin whose node failed at the snapshot has its reserves
-- UNAVAILABLE (null), never zero and never the operator's declared figure. Each address's balance and control
-- signature stay in reserve_snapshots.addresses (jsonb, one entry per address).
alter table reserve_snapshots drop constraint reserve_snapshots_reserves_source_check;
alter table reserve_snapshots add constraint reserve_snapshots_reserves_source_check
  check (reserves_source in ('NODE', 'DECLARED', 'UNAVAILABLE', 'NONE'));

-- The Merkle-sum tree of DECISIONS §20 is built inside the database (reserves/repo-snapshot.ts): hashing a million
-- leaves in C next to the rows beats sending them to the API and back (bench/reserves-snapshot.ts).
-- A quantity as 16 bytes big-endian, exact up to 2^128 - 1 (the caller checks the root's sum below 2^128).
create function reserve_u128(x numeric) returns bytea language sql immutable strict parallel safe as $$
  select case when x < 9223372036854775807 then decode(lpad(to_hex(x::bigint), 32, '0'), 'hex')
    else decode(lpad(to_hex(div(x, 79228162514264337593543950336)::bigint), 8, '0')
      || lpad(to_hex(mod(div(x, 18446744073709551616), 4294967296)::bigint), 8, '0')
      || lpad(to_hex(mod(div(x, 4294967296), 4294967296)::bigint), 8, '0')
      || lpad(to_hex(mod(x, 4294967296)::bigint), 8, '0'), 'hex') end
$$;
-- 32 random bytes for a leaf's salt from the server's strong random source (gen_random_uuid uses
-- pg_strong_random): two version-4 UUIDs, 244 random bits (their version and variant bits are fixed).
create function reserve_salt() returns bytea language sql volatile parallel safe as $$
  select uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())
$$;
