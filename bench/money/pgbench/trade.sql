\set u random(1, 16)
\set c random(0, 600)
BEGIN;
select * from balance where (uid, account_type, coin) in ((:u, 'unified', 'BGB'), (:u, 'unified', 'D' || :c)) order by uid, account_type, coin for update;
insert into ledger_tx values (nextval('ids'), 'convert', null, :u, 1);
insert into journal values (nextval('ids'), currval('ids'), :u, 'unified', 'available', 'D1', -1.5), (nextval('ids'), currval('ids'), null, null, 'conversion', 'D1', 1.5), (nextval('ids'), currval('ids'), :u, 'unified', 'available', 'BGB', 0.2), (nextval('ids'), currval('ids'), null, null, 'conversion', 'BGB', -0.2), (nextval('ids'), currval('ids'), :u, 'unified', 'available', 'BGB', -0.01), (nextval('ids'), currval('ids'), null, null, 'fee', 'BGB', 0.01);
update balance set available = available + 0.19 where uid = :u and account_type = 'unified' and coin = 'BGB';
update balance set available = 0 where uid = :u and account_type = 'unified' and coin = 'D' || :c;
insert into convert_order values (nextval('ids'), 'D1', :u, 1.5, 1, 'BGB', 0.19, 6.5, 0.01, 'BGB', 'success', 1);
COMMIT;
