-- Issue 25: the engine's public trade tape (GET /api/v3/market/fills) and 1-minute candles (GET /api/v3/market/candles,
-- higher intervals folded from these, D161). MARGIN trades are kept under SPOT: one book per spot pair (D160).
create table market_trade (
    exec_id  bigint          not null primary key,
    category varchar(16)     not null,   -- SPOT, USDT-FUTURES, USDC-FUTURES, COIN-FUTURES
    symbol   varchar(32)     not null,
    price    numeric(38, 18) not null,   -- quote coin
    size     numeric(38, 18) not null,   -- base coin
    side     varchar(8)      not null,   -- the taker's: buy, sell
    ts       bigint          not null    -- Unix ms
);
-- Recent trades of a symbol, newest first.
create index market_trade_recent on market_trade (category, symbol, ts, exec_id);

-- One row per symbol and minute with a trade or a ticker move; ts is the minute's start (Unix ms).
create table market_candle (
    category       varchar(16)     not null,
    symbol         varchar(32)     not null,
    ts             bigint          not null,
    open_price     numeric(38, 18) not null,
    high_price     numeric(38, 18) not null,
    low_price      numeric(38, 18) not null,
    close_price    numeric(38, 18) not null,
    base_volume    numeric(38, 18) not null,   -- traded size, base coin
    quote_turnover numeric(38, 18) not null,   -- traded price x size, quote coin
    primary key (category, symbol, ts)
);
