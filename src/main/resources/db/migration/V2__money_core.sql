-- Money and market core (issue 3): instruments, the double-entry ledger, debts, positions, conversions.

-- Spot/margin pairs and futures contracts, with base and quote (and margin) coins.
create table instrument (
    category      varchar(16)  not null,  -- SPOT, MARGIN, USDT-FUTURES, COIN-FUTURES, USDC-FUTURES
    symbol        varchar(32)  not null,
    base_coin     varchar(16)  not null,
    quote_coin    varchar(16)  not null,
    margin_coin   varchar(16),             -- contracts only: USDT, USDC, or the base coin (inverse)
    max_leverage  numeric(10, 2),          -- contracts only
    is_reality    boolean      not null,   -- tokenised-stock (Reality) pair
    primary key (category, symbol)
);

-- Tiered maintenance-margin rates of a contract: a notional up to max_notional (USD) uses mmr.
create table instrument_mmr_tier (
    category     varchar(16)     not null,
    symbol       varchar(32)     not null,
    tier         int             not null,
    max_notional numeric(38, 18) not null,
    mmr          numeric(38, 18) not null,
    primary key (category, symbol, tier),
    foreign key (category, symbol) references instrument (category, symbol)
);

-- One row per (uid, account, coin). account: spot, unified, otc. debt: borrowed amount (unified only).
create table balance (
    uid          bigint          not null references account (uid),
    account_type varchar(8)      not null,
    coin         varchar(16)     not null,
    available    numeric(38, 18) not null,
    frozen       numeric(38, 18) not null,
    debt         numeric(38, 18) not null,
    primary key (uid, account_type, coin)
);

-- A ledger transaction: what happened, under whose caller-given reference (idempotency).
create table ledger_tx (
    id           bigint       not null primary key,
    kind         varchar(24)  not null,   -- deposit, adjustment, convert, position_open, ...
    ref          varchar(128),            -- caller reference; unique per kind when given
    uid          bigint       not null,
    created_time bigint       not null
);
create unique index ledger_tx_ref on ledger_tx (kind, ref);

-- Journal: every balance change as a pair of rows that sum to zero per coin (double entry).
-- A user row names (uid, account_type, field); its counter row names a system counter-account.
create table journal (
    id           bigint          not null primary key,
    tx_id        bigint          not null references ledger_tx (id),
    uid          bigint,                   -- null on counter-account rows
    account_type varchar(8),               -- null on counter-account rows
    field        varchar(10)     not null, -- available, frozen, debt; or the counter-account name
    coin         varchar(16)     not null,
    amount       numeric(38, 18) not null
);
create index journal_by_balance on journal (uid, account_type, coin);
create index journal_by_tx on journal (tx_id);

-- Borrowing terms per coin: interest-free quota and the hourly rate (decimal: 0.00001 = 0.001 %/h).
create table loan_coin (
    coin                 varchar(16)     not null primary key,
    interest_free_amount numeric(38, 18) not null,
    hourly_rate          numeric(38, 18) not null
);

-- Futures positions (§2.15), open and closed (closed rows are the history of §2.14 / §2.16).
create table futures_position (
    id               bigint          not null primary key,
    uid              bigint          not null references account (uid),
    category         varchar(16)     not null,
    symbol           varchar(32)     not null,
    margin_coin      varchar(16)     not null,
    hold_side        varchar(5)      not null,  -- long, short
    margin_mode      varchar(8)      not null,  -- isolated, crossed
    pos_mode         varchar(16)     not null,  -- one_way_mode, hedge_mode
    leverage         numeric(10, 2)  not null,
    size             numeric(38, 18) not null,  -- open size in base coin
    locked           numeric(38, 18) not null,  -- part of size frozen by close orders
    open_price_avg   numeric(38, 18) not null,
    margin_size      numeric(38, 18) not null,  -- margin held for the position, in margin coin
    achieved_profits numeric(38, 18) not null,  -- realised PnL excluding fees and funding
    total_funding    numeric(38, 18) not null,
    open_fee_total   numeric(38, 18) not null,  -- fees are negative numbers (money paid)
    close_fee_total  numeric(38, 18) not null,
    open_total       numeric(38, 18) not null,  -- accumulated opened size
    close_total      numeric(38, 18) not null,  -- accumulated closed size
    close_value      numeric(38, 18) not null,  -- sum of closed size x close price, for closePriceAvg
    auto_margin      varchar(3)      not null,
    status           varchar(8)      not null,  -- open, closed
    created_time     bigint          not null,
    updated_time     bigint          not null
);
create index futures_position_by_uid on futures_position (uid, status, id);

-- Small-asset conversions (§2.10): one row per source coin; a trade's rows share its order_id.
create table convert_order (
    order_id       bigint          not null,
    from_coin      varchar(16)     not null,
    uid            bigint          not null references account (uid),
    from_amount    numeric(38, 18) not null,
    from_coin_price numeric(38, 18) not null,
    to_coin        varchar(16)     not null,
    to_amount      numeric(38, 18) not null,
    to_coin_price  numeric(38, 18) not null,
    fee            numeric(38, 18) not null,
    fee_coin       varchar(16)     not null,
    status         varchar(8)      not null,
    created_time   bigint          not null,
    primary key (order_id, from_coin)
);
create index convert_order_by_uid on convert_order (uid, order_id);
