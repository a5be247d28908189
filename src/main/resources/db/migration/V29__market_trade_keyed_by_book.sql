-- D225: a public trade is keyed by its book and time. The table had two indexes, the primary key on exec_id and
-- market_trade_recent on (category, symbol, ts, exec_id); every query reads the second (recent trades, candles' trades,
-- the streams' new trades) and none the first, yet each taker order paid for both. Now the book's order is the key: one
-- index entry per trade, still unique (exec IDs are minted once). Portable SQL: the table is rebuilt, as V24 and V25 do,
-- because H2 and PostgreSQL name the old primary key differently.
create table market_trade_by_book (
    exec_id  bigint          not null,
    category varchar(16)     not null,   -- SPOT, USDT-FUTURES, USDC-FUTURES, COIN-FUTURES
    symbol   varchar(32)     not null,
    price    numeric(38, 18) not null,   -- quote coin
    size     numeric(38, 18) not null,   -- base coin
    side     varchar(8)      not null,   -- the taker's: buy, sell
    ts       bigint          not null,   -- Unix ms
    constraint market_trade_key primary key (category, symbol, ts, exec_id)
);
insert into market_trade_by_book (exec_id, category, symbol, price, size, side, ts)
select exec_id, category, symbol, price, size, side, ts from market_trade;
drop table market_trade;
alter table market_trade_by_book rename to market_trade;
