-- D223: Reality orders (§4.7) are orders of the matching engine, flagged `reality`; they rest in the SPOT book of their
-- pair with every other account's spot orders. Every reality_order row moves into trade_order as the SPOT order it is
-- (a MARGIN Reality order traded the SPOT pair, D82), on the unified balances (classic false), and reality_order goes.
alter table trade_order add column reality boolean default false not null;

-- cum_exec_* are the filled figures; fee is what the order's §2.17 fills charged (they show it negative), fee_coin the
-- last fill's. A clientOid that an engine order of the same account already holds (one unique key per account now)
-- is dropped from the Reality order: the engine order keeps it, the Reality order stays reachable by its orderId.
-- book_lock rows need no copy: the engine creates a symbol's row on first use (OrderStore.lockBook).
insert into trade_order (order_id, uid, client_oid, category, symbol, side, order_type, time_in_force, price, qty, pos_side,
                         hold_mode, trade_side, reduce_only, margin_mode, leverage, frozen_coin, frozen, cum_exec_qty,
                         cum_exec_value, fee, fee_coin, status, cancel_reason, c_time, u_time, classic, reality)
select r.order_id, r.uid,
       case when exists (select 1 from trade_order t where t.uid = r.uid and t.client_oid = r.client_oid) then null else r.client_oid end,
       'SPOT', r.symbol, r.side, r.order_type, 'gtc', r.price, r.qty, null,
       'one_way_mode', null, false, null, null, r.frozen_coin, r.frozen, r.filled_qty,
       r.filled_amount,
       coalesce((select -sum(f.total_fee) from spot_fill f where f.uid = r.uid and f.order_id = r.order_id), 0),
       (select max(f.fee_coin) from spot_fill f where f.uid = r.uid and f.order_id = r.order_id
            and f.trade_id = (select max(g.trade_id) from spot_fill g where g.uid = r.uid and g.order_id = r.order_id)),
       r.status, null, r.c_time, r.u_time, false, true
from reality_order r;

drop table reality_order;
