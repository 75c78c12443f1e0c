-- compare.sql: ku 1 kernels of iso3dfd R = 8 at 128x128x64 on an H200,
-- timed by a sweep of 320 (sweep 1, the seed, in both databases), then the
-- 20 fastest records rechecked twice (sweeps 2 and 3, in the order A B A B)
-- with the z window a constant (A: the tree at 347bd25) and from the launch
-- (B: the same with FDTUNE_KU_LAUNCH=1). Every configuration that either
-- recheck timed; an empty cell is one not among a round's 20 fastest (after
-- B's first round, B's slow kernels left its top 20).
-- xz -dk A.db.xz B.db.xz; sqlite3 -header -column :memory: < compare.sql
ATTACH 'A.db' AS a;
ATTACH 'B.db' AS b;
SELECT json_extract(c.params, '$.vec') vec, json_extract(c.params, '$.bx') bx,
       json_extract(c.params, '$.by') "by", json_extract(c.params, '$.lds') lds,
       json_extract(c.params, '$.pf') pf, round(s.median_ms * 1000, 2) seed_us,
       round(a2.median_ms * 1000, 2) A1_us, round(b2.median_ms * 1000, 2) B1_us,
       round(a3.median_ms * 1000, 2) A2_us, round(b3.median_ms * 1000, 2) B2_us,
       round(b2.median_ms / a2.median_ms, 3) B1_over_A1
FROM a.configs c JOIN a.runs s ON s.config_id = c.id AND s.sweep_id = 1
     LEFT JOIN a.runs a2 ON a2.config_id = c.id AND a2.sweep_id = 2
     LEFT JOIN b.runs b2 ON b2.config_id = c.id AND b2.sweep_id = 2
     LEFT JOIN a.runs a3 ON a3.config_id = c.id AND a3.sweep_id = 3
     LEFT JOIN b.runs b3 ON b3.config_id = c.id AND b3.sweep_id = 3
WHERE coalesce(a2.id, b2.id, a3.id, b3.id) IS NOT NULL
ORDER BY s.median_ms;
