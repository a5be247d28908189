-- Issue 28 (D188, D189): the sandbox clock can be frozen and set back, and a snapshot saves the whole state.

-- frozen_at: the instant a frozen clock stands at, null while it runs. advanced_millis: the sum of every forward move,
-- which rate-limit buckets refill on (it never stops or goes back).
alter table sandbox_clock add column frozen_at bigint;
alter table sandbox_clock add column advanced_millis bigint default 0 not null;

-- One saved snapshot: its rows live in copies of the tables in schema schema_name. Kept by a reset.
-- schema_version: the migration the copies were taken under; a restore under another one is refused.
-- clock_*: the sandbox clock's state when it was taken. id_*: the saving node's ID generator (IdGenerator.Mark).
create table sandbox_snapshot (
    name                varchar(64)  not null primary key,
    schema_name         varchar(64)  not null unique,
    schema_version      varchar(50)  not null,
    created_time        bigint       not null,
    clock_offset_millis bigint       not null,
    clock_frozen_at     bigint,
    clock_advanced      bigint       not null,
    id_node             int          not null,
    id_last_millis      bigint       not null,
    id_sequence         bigint       not null,
    row_count           bigint       not null
);
