-- Spot fills (§2.17) and withdrawal records (§2.18) of classic accounts (issue 9), fed in by the admin batch API,
-- the CLI and seeds. No foreign key to account: the service checks the account once per batch, and a per-row
-- check would cost the million-fill ingest (bench/) a lookup per row.

-- One fill. trade_id is server-assigned and time-ordered (IdGenerator) unless the feed gives it; the primary key
-- is the paging order of §4.5.1 (uid, tradeId descending, idLessThan).
create table spot_fill (
    uid                 bigint          not null,
    trade_id            bigint          not null,
    order_id            bigint          not null,
    symbol              varchar(32)     not null,
    order_type          varchar(16)     not null,   -- limit, market
    side                varchar(8)      not null,   -- buy, sell
    price_avg           numeric(38, 18) not null,
    size                numeric(38, 18) not null,
    amount              numeric(38, 18) not null,   -- price_avg * size, checked on ingest
    trade_scope         varchar(8)      not null,   -- taker, maker
    deduction           varchar(8)      not null,   -- yes, no
    fee_coin            varchar(16)     not null,
    total_deduction_fee numeric(38, 18) not null,
    total_fee           numeric(38, 18) not null,
    c_time              bigint          not null,   -- Unix ms
    u_time              bigint          not null,
    primary key (uid, trade_id)
);
-- §4.5.1 time windows (90 days of data) and the orderId filter.
create index spot_fill_time on spot_fill (uid, c_time);
create index spot_fill_order on spot_fill (uid, order_id);

-- One withdrawal. order_id is server-assigned and time-ordered unless given; §4.5.2 pages on it.
create table withdrawal_record (
    uid          bigint          not null,
    order_id     bigint          not null,
    trade_id     varchar(128)    not null,   -- on-chain hash (on_chain) or trade ID (internal_transfer); may be empty
    coin         varchar(16)     not null,
    client_oid   varchar(64)     not null,   -- may be empty
    record_type  varchar(16)     not null,   -- §2.18 type: withdraw
    dest         varchar(32)     not null,   -- on_chain, internal_transfer
    size         numeric(38, 18) not null,
    fee          numeric(38, 18) not null,
    status       varchar(16)     not null,   -- pending, fail, success
    from_address varchar(128)    not null,
    to_address   varchar(128)    not null,
    chain        varchar(32)     not null,
    confirm      varchar(16)     not null,   -- confirmed blocks, digits
    tag          varchar(64)     not null,
    c_time       bigint          not null,
    u_time       bigint          not null,
    primary key (uid, order_id)
);
-- §4.5.2: startTime and endTime are required, so every query is a window.
create index withdrawal_record_time on withdrawal_record (uid, c_time);
