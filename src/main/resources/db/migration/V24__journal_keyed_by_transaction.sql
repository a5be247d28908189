-- D216: the journal keyed by its transaction. A journal row was keyed by an ID of its own and found by transaction through
-- a second index (journal_by_tx): every row paid for two index entries, half of all the entries a taker order wrote.
-- Now the key is (tx_id, seq), seq the row's place in its transaction from 0: one entry per row, which is also how the
-- rows of a transaction are found (the repeat check of Ledger.postOnce, the ledger check). Rows keep their order (seq
-- follows the old IDs, which were minted in posting order). Portable SQL: the table is rebuilt, not altered, because
-- H2 and PostgreSQL name the old primary key differently.
create table journal_by_transaction (
    tx_id        bigint          not null,
    seq          integer         not null,   -- the row's place in its transaction, from 0
    uid          bigint,                     -- null on counter-account rows
    account_type varchar(8),                 -- null on counter-account rows
    field        varchar(10)     not null,   -- available, frozen, debt; or the counter-account name
    coin         varchar(16)     not null,
    amount       numeric(38, 18) not null,
    constraint journal_key primary key (tx_id, seq)
);
insert into journal_by_transaction (tx_id, seq, uid, account_type, field, coin, amount)
select tx_id, cast(row_number() over (partition by tx_id order by id) - 1 as integer), uid, account_type, field, coin, amount
from journal;
drop table journal;
alter table journal_by_transaction rename to journal;
