-- Issue 9 (paging benchmark): each fill keeps its §2.17 wire JSON, rendered once at insert (io.tas.spot.FillWire),
-- because a fill never changes; a page is then served as stored strings. The rows stored before this column existed
-- are rendered by the Java migration V13 (db.migration.V13__render_spot_fill_wire_json).
alter table spot_fill add column wire_json varchar(1024) default '' not null;
