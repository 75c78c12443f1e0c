#!/bin/sh
# compare.sh DIR ORIG: on the CPU machine, ntvar.sh's A.db and B.db (in
# DIR) against the database they were copied from (ORIG): for each problem
# and value of nt, the best median of the runs the rechecks added (sweeps
# past ORIG's last), A's and B's, and B / A; then B / A for each
# configuration (its mean over the two rounds), the 5 largest first. The
# adoption rule (NOTES): each problem's best within 1%.
set -eu
d=${1:?usage: compare.sh DIR ORIG}
last=$(sqlite3 "${2:?usage: compare.sh DIR ORIG}" 'select max(id) from sweeps')
sqlite3 -header -column "$d/A.db" <<SQL
attach '$d/B.db' as b;
create temp view ra as select p.family f, p.radius r, json_extract(c.params, '\$.nt') nt,
  r.config_id cfg, r.median_ms ms from main.runs r join main.problems p on p.id = r.problem_id
  join main.configs c on c.id = r.config_id where r.sweep_id > $last and r.status = 'ok';
create temp view rb as select p.family f, p.radius r, json_extract(c.params, '\$.nt') nt,
  c.params prm, r.median_ms ms from b.runs r join b.problems p on p.id = r.problem_id
  join b.configs c on c.id = r.config_id where r.sweep_id > $last and r.status = 'ok';
select a.f, a.r, a.nt, round(a.best, 4) a_best, round(b.best, 4) b_best, round(b.best / a.best, 4) b_over_a
  from (select f, r, nt, min(ms) best from ra group by 1, 2, 3) a
  join (select f, r, nt, min(ms) best from rb group by 1, 2, 3) b using (f, r, nt) order by 1, 2, 3;
select a.f, a.r, a.nt, a.prm, round(a.ms, 4) a_ms, round(b.ms, 4) b_ms, round(b.ms / a.ms, 4) b_over_a
  from (select ra.f, ra.r, ra.nt, c.params prm, avg(ra.ms) ms from ra join main.configs c on c.id = ra.cfg group by 1, 2, 3, 4) a
  join (select f, r, nt, prm, avg(ms) ms from rb group by 1, 2, 3, 4) b using (f, r, nt, prm)
  order by b.ms / a.ms desc limit 5;
SQL
