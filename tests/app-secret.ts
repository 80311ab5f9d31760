// The APP_SECRET of every test process that lets the server derive the brandcard_app login on
// the shared test Postgres server (TEST_DATABASE_URL). The role is cluster-wide and its password
// is an HMAC of APP_SECRET (app/prepare-database.server.ts), so processes with different secrets
// would change the password under each other's open pools. Use this value, never another.
export const TEST_APP_SECRET = 'brandcard-tests-app-secret-0123456789abcdef'
