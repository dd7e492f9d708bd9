# Warroom in a container: `docker build -t warroom .`
# `docker run -e DISCORD_TOKEN=… -v warroom-data:/data warroom`
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    WARROOM_DB=/data/warroom.db

RUN useradd --create-home --uid 10001 warroom \
    && mkdir -p /data \
    && chown warroom:warroom /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engine ./engine
COPY render ./render
RUN pip install --no-cache-dir . && rm -rf /root/.cache

USER warroom
# The compiled pass of sea battles where submarines strike every round (numba,
# engine/odds/aa_strike_kernel.py) is compiled once, here, into the image's cache.
ENV NUMBA_CACHE_DIR=/home/warroom/.cache/numba
RUN cd / && python -c 'from bot.commands.odds import warm; warm()'
# The SQLite file (games, order logs) lives on this volume and survives upgrades.
VOLUME ["/data"]
ENTRYPOINT ["warroom", "run"]
