import type { ChildProcess } from 'node:child_process';

/** Types of scripts/cluster.mjs for the TypeScript tests that start a cluster (see that file). */
export interface ClusterInstance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  exited: boolean;
}

export interface Cluster {
  /** The balancer's base URL. */
  url: string;
  statsUrl: string;
  databaseUrl: string;
  /** The variables every instance got (JWT_SECRET, XPUB_*, DATABASE_URL...). */
  env: Record<string, string>;
  instances: ClusterInstance[];
  /** HAProxy's view of each server: name -> 'UP' | 'DOWN' | ... */
  serverStates(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  instances?: number;
  port?: number;
  databaseUrl?: string;
  redisUrl?: string | null;
  keepDb?: boolean;
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
}

export function findHaproxy(): string | null;
export function freePort(): Promise<number>;
export function devXpubs(): Record<string, string>;
export function haproxyConfig(o: {
  port: number;
  statsPort: number;
  servers: { name: string; port: number }[];
}): string;
export function startCluster(opts?: ClusterOptions): Promise<Cluster>;

export interface Balancer {
  /** The balancer's base URL. */
  url: string;
  statsUrl: string;
  child: ChildProcess;
  serverStates(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export function startHaproxy(o: {
  servers: { name: string; port: number }[];
  port?: number;
  dir: string;
  log?: (line: string) => void;
}): Promise<Balancer>;
