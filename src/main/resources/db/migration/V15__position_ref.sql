-- D120: a caller's ref makes an admin position open, fill or close idempotent, as refs make the ledger's admin
-- operations: one row per ref with the request it carried, so a retry answers the position instead of applying twice.
create table position_ref (
    ref          varchar(128) not null primary key,
    position_id  bigint       not null,
    request      varchar(400) not null,
    created_time bigint       not null
);
