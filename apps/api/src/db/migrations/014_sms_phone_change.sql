-- A code a signed-in member asks for another phone than their own serves only a phone change (DECISIONS §21):
-- it gets its own purpose, so the purchase phone check and the step-up (purpose 'member') never see it, even
-- after the member has moved to that phone.
alter table sms_codes drop constraint sms_codes_purpose_check;
alter table sms_codes
  add constraint sms_codes_purpose_check check (purpose in ('signup', 'member', 'reset', 'phone_change'));
