"""Turn reports: the report context (built only from a seat's view and the events and
rolls it may see) and its Jinja rendering."""
