-- Issue 26: classic accounts trade through the v2 rows on the same engine. A classic spot order settles on the
-- account's spot balances, a unified one (and every futures one) on its unified balances (D171).
alter table trade_order add column classic boolean default false not null;
