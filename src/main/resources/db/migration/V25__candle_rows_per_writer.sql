-- D221: a minute's candle is kept as one row per ledger writer (0 for every other thread), merged when read. With one
-- row per symbol and minute, the two group-commit writers' batches each updated it just before their COMMIT and held
-- its lock through the commit's WAL flush, so the writers' commits on one symbol ran one after the other.
-- open_id and close_id are the IDs of the first and last print folded in (trade exec IDs, or an ID minted for a
-- ticker move): IDs are minted in order on a node, so they say which row holds the minute's open and close. Rows kept
-- from before get 0 for both (older than any new print). Portable SQL: the table is rebuilt, as in V24.
create table market_candle_by_writer (
    category       varchar(16)     not null,
    symbol         varchar(32)     not null,
    ts             bigint          not null,   -- the minute's start (Unix ms)
    writer         integer         not null,   -- the ledger writer that folded these prints (1, 2, ...); 0: any other thread
    open_price     numeric(38, 18) not null,
    open_id        bigint          not null,   -- the first print's ID
    high_price     numeric(38, 18) not null,
    low_price      numeric(38, 18) not null,
    close_price    numeric(38, 18) not null,
    close_id       bigint          not null,   -- the last print's ID
    base_volume    numeric(38, 18) not null,   -- traded size, base coin
    quote_turnover numeric(38, 18) not null,   -- traded price x size, quote coin
    constraint market_candle_key primary key (category, symbol, ts, writer)
);
insert into market_candle_by_writer (category, symbol, ts, writer, open_price, open_id, high_price, low_price, close_price, close_id,
    base_volume, quote_turnover)
select category, symbol, ts, 0, open_price, 0, high_price, low_price, close_price, 0, base_volume, quote_turnover
from market_candle;
drop table market_candle;
alter table market_candle_by_writer rename to market_candle;
