/*
 * The audit module's front door: `audit()` records an operator's action in the caller's transaction
 * (DECISIONS §8). Below every module that acts for an operator, so each of them (and the operators module)
 * can use it without importing each other.
 */
export { type AuditRecord, audit } from './audit.ts';
