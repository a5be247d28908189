-- Issue 25: orders of the matching engine (v3 now, v2 on the same table later). One row per order, changed in the same
-- transaction as the ledger movements of its freeze, fills and cancel; its fills are spot_fill rows with its order_id.
create table trade_order (
    order_id       bigint          not null primary key,
    uid            bigint          not null,
    client_oid     varchar(64),                -- idempotent per account; null when none was given
    category       varchar(16)     not null,   -- SPOT, MARGIN, USDT-FUTURES, USDC-FUTURES, COIN-FUTURES
    symbol         varchar(32)     not null,
    side           varchar(8)      not null,   -- buy, sell
    order_type     varchar(8)      not null,   -- limit, market
    time_in_force  varchar(16)     not null,   -- gtc, ioc, fok, post_only
    price          numeric(38, 18),            -- limit orders only
    qty            numeric(38, 18) not null,   -- as placed: quote coin for a spot market buy, base coin otherwise
    pos_side       varchar(8),                 -- long, short (hedge mode); null in one-way mode
    hold_mode      varchar(16)     not null,   -- one_way_mode, hedge_mode (the account's at placement)
    trade_side     varchar(8),                 -- open, close (futures)
    reduce_only    boolean         not null,
    margin_mode    varchar(16),                -- futures: crossed, isolated (the symbol's at placement)
    leverage       numeric(10, 2),             -- futures: the side's leverage at placement
    frozen_coin    varchar(16)     not null,
    frozen         numeric(38, 18) not null,   -- what the order still holds frozen
    cum_exec_qty   numeric(38, 18) not null,   -- base coin filled
    cum_exec_value numeric(38, 18) not null,   -- quote value filled
    fee            numeric(38, 18) not null,   -- fees paid, positive
    fee_coin       varchar(16),
    status         varchar(24)     not null,   -- live, partially_filled, filled, cancelled
    cancel_reason  varchar(32),
    c_time         bigint          not null,
    u_time         bigint          not null
);
create unique index trade_order_client_oid on trade_order (uid, client_oid);
-- The book: working orders of a symbol by side and price, time (order_id) breaking ties.
create index trade_order_book on trade_order (category, symbol, status, side, price, order_id);
-- An account's orders: open orders, history pages (newest order_id first).
create index trade_order_account on trade_order (uid, status, order_id);

-- One row per traded symbol: every change to a symbol's book holds its row's lock (the per-symbol lock that keeps
-- matching correct across nodes on one database, D154).
create table book_lock (
    category varchar(16) not null,
    symbol   varchar(32) not null,
    primary key (category, symbol)
);
