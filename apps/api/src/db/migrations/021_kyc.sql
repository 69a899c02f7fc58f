-- Identity levels (DECISIONS §19): 0 phone only, 1 identity verified by the identity provider, 2 ID document
-- reviewed by an operator. The level lives on the member row (read with the member under the trade's row lock);
-- the evidence behind it lives in the kyc tables below.
alter table members add column kyc_level smallint not null default 0;
alter table members add constraint members_kyc_level_check check (kyc_level between 0 and 2);

-- One identity verification in progress: the provider's reference (for the console provider a salted hash of
-- the code it sent), the name and birth date asked for, tries (5, then a new request) and expiry.
create table kyc_identity_requests (
  id bigint generated always as identity primary key,
  member_id bigint not null references members (id),
  provider text not null,
  provider_ref text not null,
  name text not null check (char_length(name) between 1 and 50),
  birth_date date not null,
  tries int not null default 0 check (tries >= 0),
  expires_at timestamptz not null,
  verified_at timestamptz,
  created_at timestamptz not null default now()
);
create index kyc_identity_requests_member_idx on kyc_identity_requests (member_id, id desc);

-- The verified identity (level 1): the name as the provider reported it, NFC with single spaces. One per member.
create table kyc_identities (
  member_id bigint primary key references members (id),
  verified_name text not null check (char_length(verified_name) between 1 and 50),
  birth_date date not null,
  provider text not null,
  request_id bigint not null references kyc_identity_requests (id),
  verified_at timestamptz not null default now()
);

-- ID documents (level 2): the re-encoded image, sealed with AES-256-GCM under KYC_DOC_KEY (iv, tag, ciphertext;
-- the member id is its additional data, so a sealed document copied to another member's row does not open);
-- never the upload's bytes or metadata. In the database, not on one instance's disk (DECISIONS §9).
create table kyc_documents (
  id bigint generated always as identity primary key,
  member_id bigint not null references members (id),
  status text not null default 'PENDING' check (status in ('PENDING', 'APPROVED', 'REJECTED')),
  content_type text not null check (content_type in ('image/jpeg', 'image/png')),
  width int not null check (width > 0),
  height int not null check (height > 0),
  byte_size int not null check (byte_size > 0),
  key_id text not null,
  sealed bytea not null,
  reason text check (reason is null or char_length(reason) between 1 and 500),
  reviewed_by bigint references members (id),
  reviewed_at timestamptz,
  created_at timestamptz not null default now(),
  constraint kyc_documents_review_shape check (
    (status = 'PENDING' and reviewed_at is null)
    or (status = 'APPROVED' and reviewed_at is not null)
    or (status = 'REJECTED' and reviewed_at is not null and reason is not null)
  )
);
-- One document waiting for review per member: a second upload while one is pending is refused.
create unique index kyc_documents_one_pending on kyc_documents (member_id) where status = 'PENDING';
create index kyc_documents_status_idx on kyc_documents (status, id);
