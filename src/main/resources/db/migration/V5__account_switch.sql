-- Account switch to classic (spec §3.1, issue 8 item 7). Portable SQL: H2 and PostgreSQL run it, and jOOQ's DDL
-- parser reads it at build time.

-- The latest switch request of a parent account and how it ended (§2.6). One row per account: a new request after
-- a fail replaces it with the next attempt.
create table account_switch (
    uid            bigint       not null primary key references account (uid),
    attempt        int          not null,  -- 1 for the first request, +1 for each later one; names its job
    status         varchar(8)   not null,  -- process, success, fail
    reason         varchar(255) not null,  -- why it failed; empty otherwise
    requested_time bigint       not null,
    due_time       bigint       not null,  -- when its job may finish it, on the service clock
    finished_time  bigint,
    transfer_tx    bigint                  -- the ledger transaction that moved the unified balances to spot
);

-- db-scheduler's table (kagkarlsson/db-scheduler postgresql_tables.sql and hsql_tables.sql, as read by 16.7.1),
-- in types both databases accept: varchar for text, bytea (an H2 alias of varbinary) for the task data.
create table scheduled_tasks (
    task_name            varchar(100) not null,
    task_instance        varchar(100) not null,
    task_data            bytea,
    execution_time       timestamp with time zone not null,
    picked               boolean      not null,
    picked_by            varchar(255),
    last_success         timestamp with time zone,
    last_failure         timestamp with time zone,
    consecutive_failures int,
    last_heartbeat       timestamp with time zone,
    version              bigint       not null,
    priority             smallint,
    primary key (task_name, task_instance)
);
create index scheduled_tasks_by_execution_time on scheduled_tasks (execution_time);
create index scheduled_tasks_by_last_heartbeat on scheduled_tasks (last_heartbeat);
create index scheduled_tasks_by_priority on scheduled_tasks (priority desc, execution_time asc);
