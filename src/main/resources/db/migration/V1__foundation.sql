-- Foundation schema. Portable SQL: the same script runs on H2 and PostgreSQL, and jOOQ
-- generates its classes from it at build time (no database needed to build).

-- §2.2 / §2.13: a main account or a sub-account (parent_uid set).
create table account (
    uid           bigint       not null primary key,
    parent_uid    bigint       references account (uid),
    username      varchar(64)  not null,
    account_type  varchar(20)  not null,  -- §2.13 type: normal, virtual, custodian, fund_management, agent, other
    account_kind  varchar(10)  not null,  -- §2.13 accountMode: UNIFIED, CLASSIC
    status        varchar(10)  not null,  -- normal, frozen
    note          varchar(255) not null,
    inviter_id    varchar(32)  not null,
    channel_code  varchar(32)  not null,
    channel       varchar(32)  not null,
    reality_allowed boolean    not null,  -- §4.7 allow-list
    created_time  bigint       not null,
    updated_time  bigint       not null
);
create index account_by_parent on account (parent_uid, uid);

-- §2.3 settings, one row per account.
create table account_settings (
    uid           bigint      not null primary key references account (uid),
    account_mode  varchar(16) not null,  -- unified, hybrid, upgrading, switching
    account_level varchar(16) not null,  -- basic, advanced, isolated, delta
    asset_mode    varchar(16) not null,  -- multi_assets
    hold_mode     varchar(16) not null,  -- one_way_mode, hedge_mode
    stp_mode      varchar(16) not null,  -- none, cancel_taker, cancel_maker, cancel_both
    delta_switch  varchar(3)  not null,  -- no, yes
    repay_mode    varchar(8)  not null,  -- auto, manual
    deduct        varchar(3)  not null,  -- §2.5 on, off
    version       bigint      not null
);

-- §2.3 symbolConfigList items.
create table symbol_config (
    uid         bigint         not null references account (uid),
    category    varchar(16)    not null,
    symbol      varchar(32)    not null,
    margin_mode varchar(16)    not null,
    leverage    numeric(10, 2) not null,
    primary key (uid, category, symbol)
);

-- §2.3 coinConfigList items.
create table coin_config (
    uid      bigint         not null references account (uid),
    coin     varchar(16)    not null,
    leverage numeric(10, 2) not null,
    primary key (uid, coin)
);

-- API keys. The secret is encrypted under the master key; the passphrase is a salted hash.
create table api_key (
    access_key      varchar(64)   not null primary key,
    uid             bigint        not null references account (uid),
    label           varchar(64)   not null,
    secret_cipher   varchar(512)  not null,
    passphrase_salt varchar(64)   not null,
    passphrase_hash varchar(128)  not null,
    perm_type       varchar(16)   not null,  -- read-only, read-and-write
    permissions     varchar(255)  not null,  -- comma separated: uta_mgt, uta_trade, withdraw, ...
    ips             varchar(1024) not null,  -- comma separated allow-list; empty = any
    created_time    bigint        not null,
    revoked_time    bigint
);
create index api_key_by_uid on api_key (uid);

-- §2.20 tickers; futures-only and delivery fields are null for spot.
create table ticker (
    category              varchar(16)    not null,
    symbol                varchar(32)    not null,
    last_price            numeric(38, 18) not null,
    open_price_24h        numeric(38, 18) not null,
    high_price_24h        numeric(38, 18) not null,
    low_price_24h         numeric(38, 18) not null,
    ask1_price            numeric(38, 18) not null,
    bid1_price            numeric(38, 18) not null,
    ask1_size             numeric(38, 18) not null,
    bid1_size             numeric(38, 18) not null,
    price_24h_pcnt        numeric(38, 18) not null,
    volume_24h            numeric(38, 18) not null,
    turnover_24h          numeric(38, 18) not null,
    index_price           numeric(38, 18),
    mark_price            numeric(38, 18),
    funding_rate          numeric(38, 18),
    open_interest         numeric(38, 18),
    delivery_start_time   bigint,
    delivery_time         bigint,
    delivery_status       varchar(32),
    platform_turnover_24h numeric(38, 18),
    ts                    bigint         not null,
    primary key (category, symbol)
);
