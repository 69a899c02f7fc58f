/* The seed module's front door: the demo data (DECISIONS §9, §10), made through the other modules' services. */
export { seedDemo } from './seed.ts';
