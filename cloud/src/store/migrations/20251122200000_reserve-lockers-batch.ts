import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';

// PostgreSQL: several reservations in one round trip. Each item is one call of reserve_lockers
// (migration 20251122190000) in a subtransaction of its own, so a refused item (DP001–DP003) or one
// that met another process's reservation on a locker (23P01) undoes only its own writes and is
// answered as such; the others are kept. The caller sends the items ordered by location and size,
// the order in which reserve_lockers takes its advisory locks, so two batches never wait on each
// other in a cycle. Writing each hold to PostgreSQL's socket was a sixth of a cloud process's CPU
// (reservation-postgres benchmark); the SQLite store already groups its commits the same way.

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`
    CREATE OR REPLACE FUNCTION reserve_lockers_batch(p_requests jsonb, p_active_statuses text[])
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      r jsonb;
      v_answers jsonb := '[]'::jsonb;
      v_answer jsonb;
      v_state text;
      v_detail text;
    BEGIN
      FOR r IN SELECT value FROM jsonb_array_elements(p_requests) LOOP
        BEGIN
          v_answer := reserve_lockers(
            r->'booking',
            (r->>'maxOnline')::integer,
            (r->>'now')::timestamptz,
            CASE WHEN jsonb_typeof(r->'lockerNumbers') = 'array'
              THEN ARRAY(SELECT jsonb_array_elements_text(r->'lockerNumbers')::integer) END,
            (r->>'replaceHold')::boolean,
            (r->>'active')::boolean,
            CASE WHEN jsonb_typeof(r->'pinCandidates') = 'array'
              THEN ARRAY(SELECT jsonb_array_elements_text(r->'pinCandidates')) END,
            p_active_statuses
          );
          v_answers := v_answers || jsonb_build_array(jsonb_build_object('answer', v_answer));
        EXCEPTION
          WHEN SQLSTATE 'DP001' OR SQLSTATE 'DP002' OR SQLSTATE 'DP003' OR SQLSTATE '23P01' THEN
            GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_detail = PG_EXCEPTION_DETAIL;
            v_answers := v_answers || jsonb_build_array(jsonb_build_object('code', v_state, 'detail', v_detail));
        END;
      END LOOP;
      RETURN v_answers;
    END
    $fn$
  `.execute(db);
}
