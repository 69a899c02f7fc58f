/* The company module's front door: GET /api/v1/company. */
export { default as companyRoutes } from './routes.ts';
