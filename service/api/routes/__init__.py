"""The API's route handlers, one module per resource."""
