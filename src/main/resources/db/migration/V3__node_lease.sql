-- Node leases (issue 7): a running node holds one node id, the 10 node bits of every ID it mints, for as
-- long as it renews the lease. Two live nodes never hold the same id (primary key); an expired one may be
-- claimed by another node. Epoch milliseconds, by the clock of the node that wrote them.
create table node_lease (
    node_id       int          not null primary key check (node_id between 0 and 1023),
    holder        varchar(128) not null,  -- host/pid/random: this one instance of a node
    acquired_time bigint       not null,
    expires_time  bigint       not null   -- free from then on unless its holder renews it first
);
