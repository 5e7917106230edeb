-- A run history as schema version 1 wrote it (kept as a migration fixture).
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, kernel TEXT NOT NULL, source TEXT NOT NULL, options_json TEXT, launch_json TEXT, device_json TEXT, timing_json TEXT, verdict TEXT);
INSERT INTO runs VALUES (1, '2026-11-01T10:00:00.000Z', 'saxpy', '__global__ void saxpy(float a, float* x, float* y) { }', '{"arch":"sm_90","optLevel":3}', '{"grid":[4096,1,1],"block":[256,1,1],"sharedBytes":0,"cluster":[0,0,0]}', '{"name":"NVIDIA H200"}', '{"min_ms":0.21,"median_ms":0.25,"mean_ms":0.26,"stdev_ms":0.01,"samples":120}', 'pass');
INSERT INTO runs VALUES (2, '2026-11-01T10:05:00.000Z', 'saxpy', '__global__ void saxpy(float a, float* x, float* y) { }', NULL, NULL, NULL, '{"median_ms":0.24}', NULL);
PRAGMA user_version = 1;
