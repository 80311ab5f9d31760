// The role brandcard_app is cluster-wide and its login password derives from APP_SECRET: every
// test process that derives it on the shared local Postgres server uses this one secret, so
// none changes the password under another.
export const TEST_APP_SECRET = 'brandcard-tests-app-secret-0123456789abcdef'
