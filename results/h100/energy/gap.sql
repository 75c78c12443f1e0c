-- gap.sql: the energy gap.sh's recheck measured (its newest energy row)
.mode list
SELECT printf('%.1f W, %.3f J/Gpt, %.4f ms', e.watts, e.j_per_gpt, r.median_ms)
FROM energy e JOIN runs r ON r.id = e.run_id ORDER BY e.rowid DESC LIMIT 1;
