-- The application's role for docker-compose.yml (run once, when the database is first made, by
-- the postgres image from /docker-entrypoint-initdb.d): it owns nothing; `manage.py migrate`,
-- connected as the owner (POSTGRES_USER), grants it what it may do. Change the password for
-- anything but a trial, here and in DATABASE_URL.
CREATE ROLE moon LOGIN PASSWORD 'moon';
