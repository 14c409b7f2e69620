"""The table in a browser (`cardrules serve`, the `web` extra): `table` is one game served to its
seats, `view` what a seat's page is sent, `server` the Starlette application; `static/` the page."""
