-- Issue 25 (D159): the TP/SL strategy orders the engine triggers: those placed through place-strategy-order. Strategy
-- orders an operator ingests (admin API, seeds) are records of another system's orders and are never executed here.
create table tpsl_trigger (
    order_id bigint not null primary key,
    uid      bigint not null
);
