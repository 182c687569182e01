"""The grader: one submission or a class, built and checked in a sandbox, and its reports."""
