# The bot in a small image: exact versions from requirements/lock.txt, a non-root user, the database on a
# volume (/data), a health check: the bot's /healthz when METRICS_PORT is set, else `cardtable-bot check` (which
# opens the database the way the bot does); both are `cardtable-bot health`.
#   docker build -t cardtable-bot .
#   docker run -d --name cardtable --env-file .env -v cardtable-data:/data cardtable-bot
# The Activity's page (client/, docs/operators/web.md), built from its lock file.
FROM node:20-slim AS client
WORKDIR /src/client
COPY client/package.json client/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY client/ ./
RUN npm run build

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
COPY requirements/lock.txt /src/requirements/lock.txt
RUN /opt/venv/bin/pip install -r /src/requirements/lock.txt
COPY pyproject.toml README.md LICENSE /src/
COPY bot /src/bot
COPY cogs /src/cogs
COPY storage /src/storage
COPY --from=client /src/bot/web/static/activity /src/bot/web/static/activity
# --no-deps: every dependency is already installed at its locked version.
RUN /opt/venv/bin/pip install --no-deps /src

FROM python:3.11-slim
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin cardtable \
    && mkdir /data && chown cardtable:cardtable /data
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_PATH=/data/cardbot.sqlite3
USER cardtable
WORKDIR /data
VOLUME /data
# The web pages (docs/operators/web.md) listen on WEB_PORT when it is set, off otherwise; in a container
# also set WEB_HOST=0.0.0.0 and publish the port (docker run -p 127.0.0.1:8080:8080, compose.yaml's ports).
# EXPOSE 8080
# `docker stop` sends SIGTERM: the bot finishes running moves and checkpoints the database, then exits 0.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=60s --timeout=20s --start-period=30s --retries=3 CMD ["cardtable-bot", "health"]
ENTRYPOINT ["cardtable-bot"]
CMD ["run"]
