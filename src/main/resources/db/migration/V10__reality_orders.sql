-- §4.7 Reality (tokenised stock) orders (issue 10). One row per order, updated in the same transaction as the ledger
-- movements of its freeze, fills and cancel; its fills are spot_fill rows (§2.17) with the same order_id.

create table reality_order (
    uid           bigint          not null,
    order_id      bigint          not null,
    -- §4.7 clientOid, idempotent per account; null when none was given (unique keys allow several nulls).
    client_oid    varchar(64),
    category      varchar(16)     not null,   -- SPOT, MARGIN
    symbol        varchar(32)     not null,
    base_coin     varchar(16)     not null,
    quote_coin    varchar(16)     not null,
    side          varchar(8)      not null,   -- buy, sell
    order_type    varchar(8)      not null,   -- limit, market
    price         numeric(38, 18),            -- limit orders only
    qty           numeric(38, 18) not null,   -- quote coin for a market buy, base coin otherwise
    frozen_coin   varchar(16)     not null,   -- quote coin for buys, base coin for sells
    frozen        numeric(38, 18) not null,   -- what the order still holds frozen
    filled_qty    numeric(38, 18) not null,   -- base coin filled
    filled_amount numeric(38, 18) not null,   -- quote coin filled
    status        varchar(24)     not null,   -- live, partially_filled, filled, cancelled
    c_time        bigint          not null,
    u_time        bigint          not null,
    primary key (uid, order_id)
);
create unique index reality_order_client_oid on reality_order (uid, client_oid);
-- Matching on a ticker update reads the working orders of one symbol.
create index reality_order_working on reality_order (symbol, status);
