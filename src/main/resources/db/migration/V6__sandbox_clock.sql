-- Sandbox time (D55): how far the sandbox clock was moved forward, so that a restart keeps domain time where it was
-- (due jobs stay due, timestamps do not go back). One row; not emptied by a reset.
create table sandbox_clock (
    id            int    not null primary key check (id = 1),
    offset_millis bigint not null
);
