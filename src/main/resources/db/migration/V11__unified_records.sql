-- Issue 10 item 4: the v3 records of unified accounts (beyond-spec shapes §9-11). Fills and withdrawals keep their
-- V7 tables for both account families (each family is read through its own row); deposits are new.

-- A v3 fill names its product type and may carry a realised PnL (§9). V7's rows are spot fills: SPOT and 0.
alter table spot_fill add column category varchar(16) default 'SPOT' not null;
alter table spot_fill add column exec_pnl numeric(38, 18) default 0 not null;

-- One deposit (§10), fed in by the admin batch API, the CLI and seeds, and written by an admin ledger deposit to a
-- unified account. order_id is time-ordered (IdGenerator, or the ledger transaction's ID); pages are newest orderId
-- first with cursor = the smallest orderId of the previous page.
create table deposit_record (
    uid          bigint          not null,
    order_id     bigint          not null,
    record_id    varchar(128)    not null,   -- on-chain hash (on_chain) or the order ID (internal_transfer); may be empty
    coin         varchar(16)     not null,
    dest         varchar(32)     not null,   -- on_chain, internal_transfer
    size         numeric(38, 18) not null,
    status       varchar(16)     not null,   -- pending, success, fail
    from_address varchar(128)    not null,
    to_address   varchar(128)    not null,
    chain        varchar(32)     not null,
    c_time       bigint          not null,   -- Unix ms
    u_time       bigint          not null,
    primary key (uid, order_id)
);
-- startTime and endTime are required, so every query is a window.
create index deposit_record_time on deposit_record (uid, c_time);
