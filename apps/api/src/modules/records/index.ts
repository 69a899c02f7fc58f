/*
 * The records module's front door (DECISIONS §19 "Records"): the login history, closing a membership and the
 * retention purge with its lease. Wired in app.ts (routes and the job). Other modules import only this file.
 */

export { RETENTION_JOB, type RetentionRules, runRetentionPurge, startRetentionJob } from './purge.ts';
export { acquireJobLease, markJobRun, releaseJobLease } from './repo.ts';
export { default as recordRoutes } from './routes.ts';
export { maskIp } from './service.ts';
