-- The posts' full-text index as RUM, when the operator asks for it (?sightline.posts_index=rum on
-- the URL of the connection that migrates) and the extension can be had (Debian:
-- postgresql-15-rum). GIN stays the default: RUM doubled the database's CPU per ingested post for
-- a small search gain (docs/performance.md).
-- RUM keeps each word's posts with their publication time, in time order (order_by_attach), so
-- a newest-first search reads its first page from the index instead of fetching and sorting
-- every match. Without the extension (not installed, or the role may not create it) the GIN
-- index stays and searches run as before.
-- The extension goes into public, not the store's schema, so that dropping one store's schema
-- never takes another store's indexes with it.
DO $$
DECLARE
	rum_schema TEXT;
BEGIN
	IF COALESCE(current_setting('sightline.posts_index', true), '') <> 'rum' THEN
		RETURN;
	END IF;
	SELECT n.nspname INTO rum_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
		WHERE e.extname = 'rum';
	IF rum_schema IS NULL THEN
		BEGIN
			CREATE EXTENSION rum SCHEMA public;
			rum_schema := 'public';
		EXCEPTION WHEN OTHERS THEN
			RAISE NOTICE 'RUM is not available (%): the posts keep their GIN index', SQLERRM;
			RETURN;
		END;
	END IF;
	EXECUTE format('CREATE INDEX IF NOT EXISTS posts_search_rum ON posts USING rum (search %I.rum_tsvector_addon_ops, published_at)
		WITH (attach = published_at, to = search, order_by_attach = true)', rum_schema);
	DROP INDEX IF EXISTS posts_search;
END $$;
