-- D224: the journal names each row's counter account instead of writing a counter row. A movement wrote two rows, its
-- user row and a counter row (uid and account_type null, field the counter's name, the amount negated): the second
-- carried one fact, the counter's name, which now sits in the user row's column. Since V24 a transaction's rows are
-- its movements in order, each user row at seq k and its counter row at k + 1 (Ledger.post, the one writer). A counter
-- row is folded only when it is exactly that: the next row, in the same coin, the amount negated. A user row that finds
-- none keeps counter null, and a counter row nothing folded stays: the ledger check reports both (no fact is lost,
-- the migration never fails on them). Portable SQL; both subqueries look rows up by the key (tx_id, seq).
alter table journal add column counter varchar(10);
update journal set counter = (select c.field from journal c
        where c.tx_id = journal.tx_id and c.seq = journal.seq + 1 and c.uid is null and c.coin = journal.coin and c.amount = -journal.amount)
    where uid is not null;
delete from journal where uid is null and exists (select 1 from journal u
        where u.tx_id = journal.tx_id and u.seq = journal.seq - 1 and u.counter is not null);
