CREATE TABLE something(x);
