-- XRP destination tags (DECISIONS §17). XRP deposits all go to one platform account; the destination tag of a
-- payment says whose wallet it is for. Every XRP wallet gets a unique tag in 1..2^32-1 (0 is left out: some
-- wallets send 0 when the tag field is left empty), other coins none.
alter table wallets add column destination_tag bigint
  check (destination_tag between 1 and 4294967295);
create unique index wallets_destination_tag_key on wallets (coin, destination_tag)
  where destination_tag is not null;

-- Existing XRP wallets get one now: random and unique, as new wallets do (wallets/service.ts says why random).
-- The 32 random bits come from gen_random_uuid(), a strong random source; a collision draws again.
do $$
declare
  w record;
  tag bigint;
begin
  for w in select id from wallets where coin = 'XRP' and destination_tag is null order by id loop
    loop
      tag := ('x' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 8))::bit(32)::bigint;
      exit when tag > 0 and not exists (select 1 from wallets where coin = 'XRP' and destination_tag = tag);
    end loop;
    update wallets set destination_tag = tag where id = w.id;
  end loop;
end $$;

alter table wallets add constraint wallets_destination_tag_xrp
  check ((coin = 'XRP') = (destination_tag is not null));

-- The destination tag an XRP withdrawal pays with (0..2^32-1), null when none was given or for other coins.
alter table transfers add column dest_tag bigint check (dest_tag between 0 and 4294967295);
