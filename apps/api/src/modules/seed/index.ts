/* The seed module's front door: the demo data (DECISIONS §9, §10), made through the other modules' services. */
export { DEMO_MEMBERS } from './demo-data.ts';
export { seedDemo } from './seed.ts';
